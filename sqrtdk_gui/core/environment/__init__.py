"""The machine the program runs on: versions, a display to open."""
