// The tools one catalog view admits, over the slots of a search index. This file owns the one rule every
// scoped read goes through: a slot is admitted when its byte is 1, and nothing else is (a 0, or a slot past the
// end of the array, which reads `undefined`), so a read that forgets a bound still fails closed.

/** What a scope needs of its index: slots by id, their lengths, and how many slots there are. */
export interface ScopedIndex {
  slotFor(id: string): number | undefined;
  lengthOf(slot: number): number;
  /** Slots in use or free (the highest slot + 1): a scope's arrays are grown to it before a read. */
  readonly capacity: number;
}

/** Whether `admitted` (a scope's bytes) admits `slot`; the only test of admission in the catalog. */
export function isAdmittedSlot(admitted: Uint8Array, slot: number): boolean {
  return admitted[slot] === 1;
}

/**
 * The tools one catalog view admits, as one byte per index slot, with their count and total length (what BM25
 * needs for statistics of its own). The caller keeps it current: `admit` an id when it is added or first seen,
 * `dropSlot` the slot an id had when it is removed (slots are reused), `clear` to start over.
 */
export class IndexScope {
  private slots = new Uint8Array(0);
  count = 0;
  lengthSum = 0;
  /** Document frequency of a posting among the admitted tools, per posting; reset whenever they change. */
  frequencies = new WeakMap<object, number>();
  private lengths = new Float64Array(0);
  private saturation = new Float64Array(0);
  private saturationValid = false;

  constructor(private readonly index: ScopedIndex) {}

  /**
   * The admitted bytes, grown to the index's capacity first, for a loop over slots; test a slot with
   * `isAdmittedSlot`. The array is replaced when it grows, so take it again for each read.
   */
  admittedSlots(): Uint8Array {
    this.grow(this.index.capacity);
    return this.slots;
  }

  admitsSlot(slot: number): boolean {
    return isAdmittedSlot(this.slots, slot);
  }

  has(id: string): boolean {
    const slot = this.index.slotFor(id);
    return slot !== undefined && this.admitsSlot(slot);
  }

  admit(id: string): void {
    const slot = this.index.slotFor(id);
    if (slot === undefined || this.admitsSlot(slot)) return;
    this.grow(slot + 1);
    const length = this.index.lengthOf(slot);
    this.slots[slot] = 1;
    this.lengths[slot] = length;
    this.count += 1;
    this.lengthSum += length;
    this.saturationValid = false;
    this.frequencies = new WeakMap();
  }

  dropSlot(slot: number): void {
    if (!this.admitsSlot(slot)) return;
    this.slots[slot] = 0;
    this.count -= 1;
    this.lengthSum -= this.lengths[slot] as number;
    this.lengths[slot] = 0;
    this.saturationValid = false;
    this.frequencies = new WeakMap();
  }

  clear(): void {
    this.slots.fill(0);
    this.lengths.fill(0);
    this.count = 0;
    this.lengthSum = 0;
    this.saturationValid = false;
    this.frequencies = new WeakMap();
  }

  /** The per-slot saturation array (sized for `capacity` slots) and whether it is still valid. */
  saturationCache(capacity: number): { values: Float64Array; fresh: boolean } {
    this.grow(capacity);
    let fresh = this.saturationValid;
    if (this.saturation.length < capacity) {
      this.saturation = new Float64Array(this.slots.length);
      fresh = false;
    }
    this.saturationValid = true;
    return { values: this.saturation, fresh };
  }

  private grow(capacity: number): void {
    if (this.slots.length >= capacity) return;
    const size = Math.max(capacity, this.slots.length * 2, 64);
    const slots = new Uint8Array(size);
    slots.set(this.slots);
    this.slots = slots;
    const lengths = new Float64Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}
