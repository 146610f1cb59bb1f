"""Starting the program: the application, headless commands, the smoke test."""
