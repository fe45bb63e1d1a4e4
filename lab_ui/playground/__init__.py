"""The Playground page: the stage, the controls, the timeline and the turn's views."""
