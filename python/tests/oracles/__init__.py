"""Pure-Python references the tests compare fairscore's native counting with."""
