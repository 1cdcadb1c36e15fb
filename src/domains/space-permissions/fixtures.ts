import type { System } from '../common/fixture-kit.js'

/** Test fixtures of this area: they build state through the area's domain functions. */
export function spacePermissionFixtures(system: System) {
  void system
  return {}
}
