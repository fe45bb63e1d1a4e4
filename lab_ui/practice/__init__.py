"""The Practice page: exercises, being the loop and being the model."""
