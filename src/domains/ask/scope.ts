/** Which site-spaces a question is asked of: the scope site search reads too (search/site-scope.ts). */
export { siteSpacesInScope } from '../search/site-scope.js'
