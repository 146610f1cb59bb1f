"""The pure layer: numpy and the standard library only, never Qt.

The attention model and everything it is built from (sampling, softmax maths, validation),
the training lab's task and optimiser, presets, and the lesson's content and evidence.
``tests/test_layers.py`` fails if anything here imports Qt, pyqtgraph, ``gui`` or ``cli``.
"""
