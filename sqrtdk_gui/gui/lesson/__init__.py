"""The lesson pane and its presenter (the content itself is pure: ``core.lesson``)."""
