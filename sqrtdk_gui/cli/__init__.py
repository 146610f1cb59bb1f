"""The command line: arguments, headless commands, progress."""
