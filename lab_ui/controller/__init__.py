"""The controller: one LabSession per tab, the step actions and the spend status."""
