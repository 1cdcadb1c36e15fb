/** The operations of this area (to be filled in). */
export const spacePermissionOperations = {}
