// The part of autocannon 9's programmatic API that bench/served.ts and bench/postgres.ts use (autocannon ships no types).
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string
    path: string
    headers?: Record<string, string>
    body?: string
    /** Called with each answer to this request (bench/postgres.ts counts the acknowledged writes). */
    onResponse?: (status: number, body: string) => void
  }
  interface AutocannonOptions {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
    requests?: AutocannonRequest[]
  }
  interface AutocannonResult {
    /** Seconds the run took. */
    duration: number
    requests: { total: number; average: number }
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>
  export default autocannon
}
