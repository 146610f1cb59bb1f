"""Images, numbers, slides and the handout, written from the live widgets."""
