// The pacer's waiting line: retries first, then the sheet on screen's companies, row by row, each company's requests together.

/**
 * Where a waiting request comes from: the company it is about (`group`) and the cell that asked
 * (`address`, "'Sheet 1'!B12" as the custom functions runtime reports it).
 */
export interface QueuePlace {
  group: string;
  address: string;
}

/** How far the companies of the sheet on screen are: asked for and with nothing left to send. */
export interface SheetProgress {
  /** Companies of the sheet on screen queued since the queue was last empty. */
  companies: number;
  /** Of those, companies with no request waiting or in flight. */
  complete: number;
}

/** A place's sort key: [not on screen, sheet order, row]; smaller first. */
type Rank = readonly [number, number, number];

interface Entry<T> {
  item: T;
  seq: number;
  removed: boolean;
  /** Ordered entries: their company and the cell's sheet and row. */
  group?: Group<T>;
  sheet?: number;
  row?: number;
  address?: string;
  /** Its key, kept while the sheet on screen stays the same (`prioritize` computes it anew). */
  rank?: Rank;
  /** Unordered entries: sent once this many ordered entries have left (`orderedOut`). */
  after?: number;
}

interface Group<T> {
  id: string;
  seq: number;
  /** Per sheet (by order first seen): the company's first row there and that cell's address. */
  places: Map<number, { row: number; address: string }>;
  /** Its waiting entries, a heap by (rank, seq). */
  entries: Entry<T>[];
  live: number;
  /** Requests granted and not answered yet (see `OrderedQueue.granted`). */
  inFlight: number;
  rank: Rank;
  /** Its index in the group heap, -1 when not in it. */
  at: number;
}

const NO_RANK: Rank = [1, Infinity, Infinity];

/** Row of an A1 cell address ("'S'!AB12" -> 12; a range's first cell); Infinity when none. */
function rowOf(address: string): number {
  const match = /[A-Za-z]+\$?(\d+)(?::|$)/.exec(address.slice(address.lastIndexOf("!") + 1));
  return match?.[1] === undefined ? Infinity : Number(match[1]);
}

function less(a: Rank, aSeq: number, b: Rank, bSeq: number): boolean {
  for (let i = 0; i < 3; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y) return x < y;
  }
  return aSeq < bSeq;
}

/** A binary heap over `items` by `before`; `moved` learns each item's new index. */
function siftUp<X>(
  items: X[],
  i: number,
  before: (a: X, b: X) => boolean,
  moved?: (x: X, i: number) => void,
) {
  const x = items[i] as X;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = items[parent] as X;
    if (!before(x, p)) break;
    items[i] = p;
    moved?.(p, i);
    i = parent;
  }
  items[i] = x;
  moved?.(x, i);
}

function siftDown<X>(
  items: X[],
  i: number,
  before: (a: X, b: X) => boolean,
  moved?: (x: X, i: number) => void,
) {
  const x = items[i] as X;
  const n = items.length;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= n) break;
    const right = child + 1;
    if (right < n && before(items[right] as X, items[child] as X)) child = right;
    const c = items[child] as X;
    if (!before(c, x)) break;
    items[i] = c;
    moved?.(c, i);
    i = child;
  }
  items[i] = x;
  moved?.(x, i);
}

function popHeap<X>(
  items: X[],
  before: (a: X, b: X) => boolean,
  moved?: (x: X, i: number) => void,
): X | undefined {
  const top = items[0];
  const last = items.pop();
  if (top === undefined || last === undefined) return undefined;
  if (items.length > 0) {
    items[0] = last;
    siftDown(items, 0, before, moved);
  }
  return top;
}

/**
 * The waiting line of `Pacer`. Order:
 * 1. retries (`push(…, first)`), newest first: each has waited its turn once already;
 * 2. requests of no cell (`place` absent: the pane, the background queue, look-ups) in arrival
 *    order among everything queued, as before cells were ordered: such a request waits for the
 *    cells' requests queued before it and no others;
 * 3. cells' requests by company: the companies of the sheet on screen (`prioritize`) first, then
 *    the other sheets in the order they were first seen; on a sheet by the company's first row;
 *    and every request of a company before the next company's, so rows complete one after another
 *    (bench: with arrival order every company's requests spread over the whole cold build).
 *    Within a company, by its cells' rows.
 * Each push and shift costs O(log n) (a heap of companies, each a heap of its requests): a cold
 * model queues thousands of requests. Nothing is added or dropped: the same requests, reordered.
 */
export class OrderedQueue<T> {
  private readonly retries: Entry<T>[] = [];
  /** Requests of no cell, oldest first (removed ones skipped at the head). */
  private readonly unordered: Entry<T>[] = [];
  private unorderedHead = 0;
  private unorderedLive = 0;
  private readonly heap: Group<T>[] = [];
  private readonly groups = new Map<string, Group<T>>();
  private readonly sheets = new Map<string, number>();
  private orderedLive = 0;
  /** Ordered entries that left the line so far (granted or removed). */
  private orderedOut = 0;
  private seq = 0;
  private focus: ((address: string) => boolean) | undefined;
  private readonly byItem = new Map<T, Entry<T>>();

  get length(): number {
    return this.retries.length + this.unorderedLive + this.orderedLive;
  }

  push(item: T, place: QueuePlace | undefined, first = false): void {
    const entry: Entry<T> = { item, seq: (this.seq += 1), removed: false };
    this.byItem.set(item, entry);
    if (first) {
      // A retry keeps its company busy (not complete) while it waits.
      if (place !== undefined) {
        entry.group = this.groupOf(place);
        entry.group.inFlight += 1;
      }
      this.retries.unshift(entry);
      return;
    }
    if (place === undefined) {
      entry.after = this.orderedOut + this.orderedLive;
      this.unordered.push(entry);
      this.unorderedLive += 1;
      return;
    }
    const group = this.groupOf(place);
    const sheet = this.sheetOf(place.address);
    const row = rowOf(place.address);
    entry.group = group;
    entry.sheet = sheet;
    entry.row = row;
    entry.address = place.address;
    entry.rank = this.rankOf(sheet, row, place.address);
    const known = group.places.get(sheet);
    const placeMoved = known === undefined || row < known.row;
    if (placeMoved) group.places.set(sheet, { row, address: place.address });
    group.entries.push(entry);
    siftUp(group.entries, group.entries.length - 1, this.entryBefore);
    group.live += 1;
    this.orderedLive += 1;
    if (group.at < 0) {
      group.rank = this.groupRank(group);
      this.heap.push(group);
      siftUp(this.heap, this.heap.length - 1, this.groupBefore, this.groupMoved);
    } else if (placeMoved) {
      const rank = this.groupRank(group);
      if (less(rank, group.seq, group.rank, group.seq)) {
        group.rank = rank;
        siftUp(this.heap, group.at, this.groupBefore, this.groupMoved);
      }
    }
  }

  /** The next request to grant, removed from the line; undefined when none waits. */
  shift(): T | undefined {
    const retry = this.retries.shift();
    if (retry !== undefined) {
      this.byItem.delete(retry.item);
      // Its company's count moves from "retry waiting" to the grant's `granted`.
      if (retry.group !== undefined) retry.group.inFlight -= 1;
      return this.grant(retry);
    }
    this.skipRemovedUnordered();
    const head = this.unordered[this.unorderedHead];
    if (head !== undefined && (head.after ?? 0) <= this.orderedOut) return this.takeUnordered();
    const entry = this.takeOrdered();
    if (entry !== undefined) return this.grant(entry);
    return head === undefined ? undefined : this.takeUnordered();
  }

  /** True when `shift` would give a cell's request (no retry, no request of no cell before it). */
  nextIsOrdered(): boolean {
    if (this.retries.length > 0 || this.orderedLive === 0) return false;
    this.skipRemovedUnordered();
    const head = this.unordered[this.unorderedHead];
    return head === undefined || (head.after ?? 0) > this.orderedOut;
  }

  /** Takes `item` out of the line (its caller gave up); false when it was not waiting. */
  remove(item: T): boolean {
    const entry = this.byItem.get(item);
    if (entry === undefined) return false;
    this.byItem.delete(item);
    entry.removed = true;
    const at = this.retries.indexOf(entry);
    if (at >= 0) {
      this.retries.splice(at, 1);
      if (entry.group !== undefined) entry.group.inFlight -= 1;
    } else if (entry.group !== undefined) {
      entry.group.live -= 1;
      this.orderedLive -= 1;
      this.orderedOut += 1;
    } else this.unorderedLive -= 1;
    this.forgetIfIdle();
    return true;
  }

  /** Every waiting request, taken out of the line. */
  drain(): T[] {
    const all = this.values();
    for (const item of all) this.remove(item);
    return all;
  }

  /** Every waiting request, in no particular order. */
  values(): T[] {
    return [...this.byItem.keys()];
  }

  /**
   * The sheet on screen: companies with a cell passing `test` go first, from now on and for
   * requests queued later; undefined: sheets in the order first seen. Reorders what waits (O(n)).
   */
  prioritize(test: ((address: string) => boolean) | undefined): void {
    this.focus = test;
    for (const group of this.groups.values()) {
      group.rank = this.groupRank(group);
      const entries = group.entries;
      for (const e of entries) e.rank = this.rankOf(e.sheet ?? 0, e.row ?? 0, e.address ?? "");
      for (let i = (entries.length >> 1) - 1; i >= 0; i -= 1)
        siftDown(entries, i, this.entryBefore);
    }
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i -= 1)
      siftDown(this.heap, i, this.groupBefore, this.groupMoved);
  }

  /** Companies of the sheet on screen since the line was last empty; undefined without one. */
  sheetProgress(): SheetProgress | undefined {
    const test = this.focus;
    if (test === undefined) return undefined;
    let companies = 0;
    let complete = 0;
    for (const group of this.groups.values()) {
      let shown = false;
      for (const place of group.places.values()) if ((shown = test(place.address))) break;
      if (!shown) continue;
      companies += 1;
      if (group.live === 0 && group.inFlight === 0) complete += 1;
    }
    return companies === 0 ? undefined : { companies, complete };
  }

  private readonly grantedGroup = new Map<T, string>();

  private grant(entry: Entry<T>): T {
    if (entry.group !== undefined) {
      entry.group.inFlight += 1;
      this.grantedGroup.set(entry.item, entry.group.id);
    }
    return entry.item;
  }

  /**
   * A granted request was answered or given up (the pacer's permit is done): its company is
   * complete when none of its requests waits or is in flight.
   */
  release(item: T): void {
    const group = this.grantedGroup.get(item);
    if (group !== undefined) {
      this.grantedGroup.delete(item);
      const g = this.groups.get(group);
      if (g !== undefined) g.inFlight -= 1;
    }
    this.forgetIfIdle();
  }

  private takeUnordered(): T | undefined {
    const entry = this.unordered[this.unorderedHead];
    if (entry === undefined) return undefined;
    this.unorderedHead += 1;
    this.unorderedLive -= 1;
    this.byItem.delete(entry.item);
    this.compactUnordered();
    return entry.item;
  }

  private skipRemovedUnordered(): void {
    while (this.unordered[this.unorderedHead]?.removed === true) this.unorderedHead += 1;
    this.compactUnordered();
  }

  /** Drops the consumed head of `unordered` once it is half the array (amortized O(1)). */
  private compactUnordered(): void {
    if (this.unorderedHead > 64 && this.unorderedHead * 2 > this.unordered.length) {
      this.unordered.splice(0, this.unorderedHead);
      this.unorderedHead = 0;
    }
  }

  private takeOrdered(): Entry<T> | undefined {
    for (;;) {
      const group = this.heap[0];
      if (group === undefined) return undefined;
      const entry = popHeap(group.entries, this.entryBefore);
      if (entry === undefined) {
        popHeap(this.heap, this.groupBefore, this.groupMoved);
        group.at = -1;
        continue;
      }
      if (entry.removed) continue;
      if (group.entries.length === 0) {
        popHeap(this.heap, this.groupBefore, this.groupMoved);
        group.at = -1;
      }
      this.byItem.delete(entry.item);
      group.live -= 1;
      this.orderedLive -= 1;
      this.orderedOut += 1;
      return entry;
    }
  }

  /** Once nothing waits or is in flight, companies and sheets are forgotten (a new build counts anew). */
  private forgetIfIdle(): void {
    if (this.length > 0 || this.grantedGroup.size > 0) return;
    this.groups.clear();
    this.sheets.clear();
    this.heap.length = 0;
    this.unordered.length = 0;
    this.unorderedHead = 0;
  }

  private groupOf(place: QueuePlace): Group<T> {
    let group = this.groups.get(place.group);
    if (group === undefined) {
      group = {
        id: place.group,
        seq: (this.seq += 1),
        places: new Map(),
        entries: [],
        live: 0,
        inFlight: 0,
        rank: NO_RANK,
        at: -1,
      };
      this.groups.set(place.group, group);
    }
    return group;
  }

  private sheetOf(address: string): number {
    const bang = address.lastIndexOf("!");
    const name = bang < 0 ? "" : address.slice(0, bang);
    let n = this.sheets.get(name);
    if (n === undefined) this.sheets.set(name, (n = this.sheets.size));
    return n;
  }

  private rankOf(sheet: number, row: number, address: string): Rank {
    return [this.focus?.(address) === true ? 0 : 1, sheet, row];
  }

  /** A company's place: its best cell over the sheets it is on. */
  private groupRank(group: Group<T>): Rank {
    let best: Rank = NO_RANK;
    for (const [sheet, place] of group.places) {
      const rank = this.rankOf(sheet, place.row, place.address);
      if (less(rank, 0, best, 0)) best = rank;
    }
    return best;
  }

  private readonly entryBefore = (a: Entry<T>, b: Entry<T>): boolean =>
    less(a.rank ?? NO_RANK, a.seq, b.rank ?? NO_RANK, b.seq);

  private readonly groupBefore = (a: Group<T>, b: Group<T>): boolean =>
    less(a.rank, a.seq, b.rank, b.seq);

  private readonly groupMoved = (g: Group<T>, i: number): void => {
    g.at = i;
  };
}
