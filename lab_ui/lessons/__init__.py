"""The Lessons page: a lesson's script, its quiz, joining a class and goal feedback."""
