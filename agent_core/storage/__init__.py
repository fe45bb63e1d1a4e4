"""Where runs, progress and classes are kept: the run store and the database."""
