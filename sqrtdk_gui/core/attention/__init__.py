"""The attention maths: parameters, scaling modes, results, theory, softmax, precision."""
