"""Words in the learner's language: the catalogue, the translations and the learning texts."""
