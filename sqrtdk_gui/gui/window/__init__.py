"""The main window and its services: controls, controller, menus, settings, undo."""
