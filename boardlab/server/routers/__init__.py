"""One router per resource: the game catalog, rooms, actions in a room, live updates, records."""
