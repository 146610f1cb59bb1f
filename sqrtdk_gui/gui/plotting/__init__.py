"""The drawing layer: pyqtgraph items made fast for the live frame."""
