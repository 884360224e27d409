import { Change, ChangeFeed, type Restamp, type RowState } from '../change';

/** A feed that numbers its changes 1, 2, 3…: for unit tests of what consumes changes. Not used by the program. */
export class NumberedFeed<T> extends ChangeFeed<T> {
  #count = 0;

  constructor(readonly restamp: Restamp<T> = (o) => o) {
    super();
  }

  get resourceVersion(): string {
    return String(this.#count);
  }

  append(before: RowState<T> | undefined, after: RowState<T> | undefined): Change<T> {
    return this.publish(new Change(String(++this.#count), before, after, this.restamp));
  }
}
