"""The lesson as data: steps, traps, follow-ups, and the evidence the model computes for them."""
