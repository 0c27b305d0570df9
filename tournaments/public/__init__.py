"""Public pages of events (no sign-in): home, standings, bracket, rounds' tables, score
sheets, live scores, team and player pages, a season's leaderboard, and the hall's projector."""
