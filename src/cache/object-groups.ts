import type { KubeObject } from '../kube/types';
import { nameOfCached, namespaceOfCached } from './records';

/**
 * The objects of one namespace in a store, by size: one object as itself, a few as an array, more as a
 * Map by name. A namespace holds one object of a kind or a few (its quota, its limits, its bindings), and
 * an array of a few costs a fraction of a Map; the objects carry their names, so no key string is kept.
 *
 * Invariants: a group holds each name once; an array holds 2..SMALL objects; a group that drops to one
 * object is stored as the object, one that drops to none is removed.
 */
export type ObjectGroup<T> = T | T[] | Map<string, T>;

/** The most objects held in an array; one more makes a Map. */
const SMALL = 8;

/** The groups of a store by namespace: a Map, or a table that reads each group's namespace off it (see {@link namespaceOfGroup}). */
export interface Groups<T> {
  get(at: string): ObjectGroup<T> | undefined;
  set(at: string, group: ObjectGroup<T>): unknown;
  delete(at: string): unknown;
}

/** The namespace of a group's objects (they share it). */
export function namespaceOfGroup<T extends KubeObject>(group: ObjectGroup<T>): string {
  const first = Array.isArray(group) ? group[0] : isMap(group) ? group.values().next().value! : group;
  return namespaceOfCached(first) ?? '';
}

function isMap<T>(group: ObjectGroup<T>): group is Map<string, T> {
  return group instanceof Map;
}

/** The object named `name` in `group`. */
export function groupGet<T extends KubeObject>(group: ObjectGroup<T> | undefined, name: string): T | undefined {
  if (group === undefined) return undefined;
  if (Array.isArray(group)) return group.find((o) => nameOfCached(o) === name);
  if (isMap(group)) return group.get(name);
  return nameOfCached(group) === name ? group : undefined;
}

/** Puts `obj` in the group `groups` holds under `at`, replacing the object of the same name; returns that one. */
export function groupSet<T extends KubeObject>(groups: Groups<T>, at: string, obj: T): T | undefined {
  const name = nameOfCached(obj);
  const group = groups.get(at);
  if (group === undefined) {
    groups.set(at, obj);
    return undefined;
  }
  if (Array.isArray(group)) {
    const i = group.findIndex((o) => nameOfCached(o) === name);
    if (i >= 0) return replaceAt(group, i, obj);
    if (group.length < SMALL) groups.set(at, group.concat(obj)); // exact length: push would leave room for ~16 more
    else groups.set(at, new Map([...group, obj].map((o) => [nameOfCached(o), o])));
    return undefined;
  }
  if (isMap(group)) {
    const old = group.get(name);
    group.set(name, obj);
    return old;
  }
  if (nameOfCached(group) === name) {
    groups.set(at, obj);
    return group;
  }
  groups.set(at, [group, obj]);
  return undefined;
}

function replaceAt<T>(group: T[], i: number, obj: T): T {
  const old = group[i];
  group[i] = obj;
  return old;
}

/** Removes the object named `name` from the group under `at`; returns it. */
export function groupDelete<T extends KubeObject>(groups: Groups<T>, at: string, name: string): T | undefined {
  const group = groups.get(at);
  if (group === undefined) return undefined;
  if (Array.isArray(group)) {
    const i = group.findIndex((o) => nameOfCached(o) === name);
    if (i < 0) return undefined;
    const [old] = group.splice(i, 1);
    if (group.length === 1) groups.set(at, group[0]);
    return old;
  }
  if (isMap(group)) {
    const old = group.get(name);
    if (old === undefined) return undefined;
    group.delete(name);
    if (group.size <= SMALL) groups.set(at, group.size === 1 ? group.values().next().value! : [...group.values()]);
    return old;
  }
  if (nameOfCached(group) !== name) return undefined;
  groups.delete(at);
  return group;
}

/** The objects of a group (none for undefined). */
export function groupValues<T>(group: ObjectGroup<T> | undefined): Iterable<T> {
  if (group === undefined) return [];
  if (Array.isArray(group)) return group;
  if (isMap(group)) return group.values();
  return [group];
}
