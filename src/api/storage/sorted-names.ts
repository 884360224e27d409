/** Names kept sorted as kube-apiserver orders lists (by name), with binary-search insert and remove. */
export class SortedNames {
  readonly #names: string[] = [];

  get size(): number {
    return this.#names.length;
  }

  /** The names in order (the live array: do not modify). */
  get all(): readonly string[] {
    return this.#names;
  }

  insert(name: string): void {
    const i = this.#search(name);
    if (this.#names[i] !== name) this.#names.splice(i, 0, name);
  }

  remove(name: string): void {
    const i = this.#search(name);
    if (this.#names[i] === name) this.#names.splice(i, 1);
  }

  /** First index whose name is >= `name`. */
  #search(name: string): number {
    let lo = 0;
    let hi = this.#names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#names[mid] < name) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
