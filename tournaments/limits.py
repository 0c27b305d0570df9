"""The ranges of the numbers an organiser gives an event and its entries: what every form,
serializer and CSV row of the app accepts, each within its column (a PositiveSmallIntegerField
holds up to 32,767) and within what any Kaiser event needs."""

from scoring.rules.ruleset import MAX_TARGET, MAX_TIME_LIMIT_MINUTES

SEED = (1, 9999)
RATING = (0.0, 10_000.0)
FORFEIT_SCORE = (-MAX_TARGET, MAX_TARGET)
ROUNDS = (1, 50)
POOL_COUNT = (2, 64)
POOL_ADVANCE = (1, 64)
KNOCKOUT_SIZE = (2, 256)  # teams going on from a Swiss or round robin to its knockout
MINUTES_PER_GAME = (1, MAX_TIME_LIMIT_MINUTES)
POOL = (1, POOL_COUNT[1])  # a pool's number
# Numbers an imported event's rows carry: what generation, "add a table" and the bracket count
# on, with room to count on from them.
ROUND_NUMBER = (1, 9999)
TABLE_NUMBER = (1, 999)
CAPACITY = (1, 9999)  # places for sign-ups
MATCH_NUMBER = (1, 99_999)
HANDS_PER_GAME = 1000  # a game of Kaiser has a few dozen hands, misdeals included
