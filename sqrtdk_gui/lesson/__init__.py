"""The five-step lesson, the traps and the follow-ups: content (pure) and pane (Qt)."""
