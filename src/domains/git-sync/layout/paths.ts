/** Repository paths and relative links: the content area's (markdown reads and writes them too). */
export * from '../../content/link-paths.js'
