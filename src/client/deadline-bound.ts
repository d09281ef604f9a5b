// How long a call may take once its first request is sent (the client's default; deadline.ts measures it).

/**
 * Every call (a cell's invocation, with every request it makes: COMPANY makes several in a row)
 * settles within this bound of the API's own time once its first request is sent: attempts,
 * backoff, and the 429 pauses its own requests drew all count. Time queued behind the add-in's own
 * pacing (60 a minute), or behind a pause another call's 429 began, does not: that queue is ours,
 * the pane shows it (n ahead, the wait), and it moves at the rate (README "`#BUSY!` that does
 * not go away"). A queued call gives up at once only when one pause alone outlasts this bound (a
 * Retry-After beyond it: the cell shows its last good answer, if any, rather than #BUSY! for
 * minutes, and is recalculated when its answer arrives: client.ts, gave-up.ts).
 * @unit ms @default 120000
 */
export const DEFAULT_DEADLINE_MS = 120_000;
