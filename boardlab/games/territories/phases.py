"""The phases of a turn (R4, R10.4) as ints, for every module of the game to share.

A phase says what the game waits for; whose decision it is follows from it
(see ``TerritoriesState.current_player``). A trade proposal is announced
(``propose``, ``counter``), then named in phase PROPOSE or COUNTER_PROPOSE, then
answered in phase RESPOND or COUNTER_RESPOND (R8.2, R8.3). Discards, wildcards and draws owed
after a roll are not phases: they are queues that take precedence over the
phase and arise only from MAIN on.
"""

from __future__ import annotations

from typing import Final

DEAL, FIRST, SETUP, ROLL, MAIN, RESPOND, COUNTER_RESPOND, PROPOSE, COUNTER_PROPOSE = range(9)
#: the phases of an ability in progress come last (``phase >= ABILITY_DIE``)
ABILITY_DIE, ABILITY_PAY, ABILITY_PLACE, DUEL, RAID_TARGET, CONVERT_TARGET = range(9, 15)

#: the names used by the position string (R10.4) and the view, by phase number
PHASE_NAMES: Final[tuple[str, ...]] = (
    "deal", "first", "setup", "roll", "main", "respond", "counter_respond", "propose", "counter_propose",
    "ability_die", "ability_pay", "ability_place", "duel", "raid_target", "convert_target",
)

#: chance decides in these phases (the deal, the first player, the dice)
CHANCE_PHASES: Final = frozenset((DEAL, FIRST, ROLL, ABILITY_DIE, DUEL))

#: the setup snake (R3.3): setup step -> 0 for P1, 1 for P2
SETUP_ORDER: Final[tuple[int, ...]] = (0, 1, 1, 0)
#: setup steps from which a placed Town collects (the second Towns, R3.3)
FIRST_COLLECTING_STEP: Final = 2
SETUP_STEPS: Final = len(SETUP_ORDER)
