"""pyqtgraph panels: each creates its plot items once and updates them with setData."""
