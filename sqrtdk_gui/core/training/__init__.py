"""The training lab's maths: the task, optimisers, the loop, learning-rate sweeps."""
