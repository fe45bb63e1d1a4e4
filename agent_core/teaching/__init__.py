"""Teaching: lessons, the learning modes, progress, classes and teacher notes."""
