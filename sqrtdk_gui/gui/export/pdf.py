"""PDF files through Qt's own PDF writer: slides as pages of their own size, and HTML documents
(the handout, the concept test) laid out on A4.

A ``PdfPages`` is filled page by page in one thread (the export's) and written once, whole,
by ``safe_io`` (an old file is replaced only by a complete new one).
"""

from __future__ import annotations

import errno

from PySide6.QtCore import QBuffer, QCoreApplication, QIODevice, QMarginsF, QRect, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

from sqrtdk_gui.core.io import safe_io

__all__ = ["PDF_SUFFIX", "PdfPages", "html_pdf", "concept_test_pdf"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

PDF_SUFFIX = ".pdf"
SLIDE_DPI = 96  # a slide's pixels at screen resolution: 1920 × 1080 is a 20 × 11.25 inch page
CREATOR = "sqrtdk-gui"


def _writer(buffer: QBuffer, title: str) -> QPdfWriter:
    writer = QPdfWriter(buffer)
    writer.setCreator(CREATOR)
    writer.setTitle(title)
    return writer


class PdfPages:
    """Images as the pages of one PDF, each page the size of the first image at SLIDE_DPI."""

    def __init__(self, path: str, title: str) -> None:
        self.path, self.title = path, title
        self.pages = 0
        self._buffer = QBuffer()
        self._buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self._writer: QPdfWriter | None = None
        self._painter: QPainter | None = None

    def add(self, image: QImage) -> None:
        """Append ``image`` as the next page."""
        if self._writer is None:
            self._writer = _writer(self._buffer, self.title)
            self._writer.setResolution(SLIDE_DPI)
            points = QSizeF(image.width() * 72 / SLIDE_DPI, image.height() * 72 / SLIDE_DPI)
            self._writer.setPageLayout(QPageLayout(QPageSize(points, QPageSize.Unit.Point, "",
                                                             QPageSize.SizeMatchPolicy.ExactMatch),
                                                   QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
            self._painter = QPainter(self._writer)
        elif not self._writer.newPage():
            raise self._failure()
        assert self._painter is not None
        self._painter.drawImage(QRect(0, 0, image.width(), image.height()), image)
        self.pages += 1

    def write(self) -> str:
        """End the document and write it; the path written, or IOFailure in one sentence."""
        if self._painter is None or not self._painter.end():
            raise self._failure()
        self._painter = None
        # QByteArray has the buffer protocol; its stub declares no __buffer__.
        return safe_io.write_bytes(self.path, bytes(self._buffer.data()))  # type: ignore[call-overload]

    def discard(self) -> None:
        """End the document without writing it (a cancelled export): the painter is ended in
        the thread that painted, before the writer and its buffer go."""
        if self._painter is not None:
            self._painter.end()
            self._painter = None
        self._writer = None

    def _failure(self) -> safe_io.IOFailure:
        return safe_io.IOFailure(errno.EIO, "write", self.path,
                                 translate("Export", "the PDF could not be written"))


def html_pdf(html: str, path: str, title: str) -> str:
    """``html`` laid out on A4 pages (Qt's rich-text subset: headings, paragraphs, tables,
    images given as resources) and written as ``path``; the path, or IOFailure."""
    document = QTextDocument()
    document.setHtml(html)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = _writer(buffer, title)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(18, 18, 18, 18), QPageLayout.Unit.Millimeter))
    document.print_(writer)
    del writer  # the document is finished when its writer goes
    data = bytes(buffer.data())  # type: ignore[call-overload]  # (QByteArray's stub: no __buffer__)
    if not data.startswith(b"%PDF"):
        raise safe_io.IOFailure(errno.EIO, "write", path, translate("Export", "the PDF could not be written"))
    return safe_io.write_bytes(path, data)


def concept_test_pdf(path: str) -> str:
    """Practice mode's concept test as a PDF on A4, its answer key from a new page."""
    from sqrtdk_gui.core.i18n import _
    from sqrtdk_gui.core.practice import BANK
    from sqrtdk_gui.core.practice.concept_test import TITLE, concept_test

    return html_pdf(concept_test(BANK, "html"), path, _(TITLE))
