import { Immer, type produce as immerProduce } from 'immer'

/**
 * immer's `produce` for domain transitions, without immer's own freezing pass: every row a
 * transition makes goes to the store, which deep-freezes what it keeps (and hands out frozen
 * rows only), so freezing it here as well is work done twice. The result of `produce` is thus a
 * fresh object the transition may still complete (a timestamp) before writing it. A private
 * instance, so the setting does not reach other users of immer in the same program.
 */
export const produce: typeof immerProduce = new Immer({ autoFreeze: false }).produce
