import type { Translator } from './translator.js'

/**
 * The translator among the API's services (core/services.ts), for the run jobs (`env.services`).
 * In a file of its own, which nothing imports: it is part of the program, so the augmentation
 * holds everywhere, and it stays out of the published type declarations, where a relative module
 * augmentation could not be resolved.
 */
declare module '../../core/services.js' {
  interface Services {
    /** The translator of translation runs (`translate` option); none: runs copy the text as it is. */
    translate?: Translator
  }
}
