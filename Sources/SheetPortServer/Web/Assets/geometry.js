// Sizes: xlsx keeps column widths in characters of the default font's digit width and row
// heights in points; the grid draws them in CSS pixels (Calibri 11: 7 px a digit, 96 dpi).

const digitWidth = 7;
const padding = Math.trunc(128 / digitWidth);

/** An xlsx column width (characters) in pixels, as Excel draws it. */
export function widthToPixels(width) {
  return Math.max(0, Math.trunc(((256 * width + padding) / 256) * digitWidth));
}

/** The xlsx column width that draws `pixels` wide (Excel's own rounding, 1/256 of a character). */
export function pixelsToWidth(pixels) {
  return Math.round((Math.max(0, pixels) / digitWidth) * 256) / 256;
}

/** Points in pixels. */
export function pointsToPixels(points) {
  return Math.round((points * 4) / 3);
}

/** Pixels in points (a quarter point, as Excel keeps heights). */
export function pixelsToPoints(pixels) {
  return Math.round(((Math.max(0, pixels) * 3) / 4) * 4) / 4;
}

/** Excel's default column: 8.43 characters, stored as 9.140625, 64 px. */
export const defaultColumnPixels = 64;
/** Excel's default row: 15 points, 20 px. */
export const defaultRowPoints = 15;

/**
 * One axis of the grid (rows or columns): `count` lines of `size` pixels but those set one by
 * one; offsets are answered in O(log n) so a million rows cost no more than a hundred.
 */
export class Axis {
  constructor(count, size) {
    this.count = count;
    this.size = size;
    this.sizes = new Map();
    this.dirty = true;
  }

  /** Sets line `index`'s size in pixels (null: the default). */
  set(index, pixels) {
    if (pixels === null || pixels === undefined || pixels === this.size) this.sizes.delete(index);
    else this.sizes.set(index, pixels);
    this.dirty = true;
  }

  /** Line `index`'s size in pixels. */
  sizeOf(index) {
    return this.sizes.has(index) ? this.sizes.get(index) : this.size;
  }

  prepare() {
    if (!this.dirty) return;
    this.keys = [...this.sizes.keys()].sort((a, b) => a - b);
    this.prefix = [0];
    for (const key of this.keys) this.prefix.push(this.prefix[this.prefix.length - 1] + this.sizes.get(key) - this.size);
    this.dirty = false;
  }

  // How many set lines lie before `index`.
  setBefore(index) {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.keys[middle] < index) low = middle + 1; else high = middle;
    }
    return low;
  }

  /** The offset of line `index` (from 1) in pixels. */
  offset(index) {
    this.prepare();
    return (index - 1) * this.size + this.prefix[this.setBefore(index)];
  }

  /** The whole axis in pixels. */
  total() {
    return this.offset(this.count + 1);
  }

  /** The line at `pixels` from the start (clamped to 1...count). */
  indexAt(pixels) {
    let low = 1;
    let high = this.count;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.offset(middle) <= pixels) low = middle; else high = middle - 1;
    }
    return low;
  }
}
