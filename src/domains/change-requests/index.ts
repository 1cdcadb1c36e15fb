import { defineArea } from '../area.js'
import { changeRequestsCollections } from './rows.js'
import { changeRequestHandlers } from './handlers.js'
import { changeRequestSeedRules } from './seed.js'
import { createPdfCache } from './pdf-cache.js'
import { pdfTicketDropped } from './pdf-ticket.js'
import { mergedFrom } from './encode.js'
import { moveSpaceChangeRequests } from './space-rows.js'

/** The change-requests area (see domains/area.ts). */
export const changeRequestsArea = defineArea({
  name: 'change-requests',
  collections: changeRequestsCollections,
  operations: changeRequestHandlers,
  seed: changeRequestSeedRules,
  services: (options) => ({ pdfs: createPdfCache(options.pdfCacheBytes) }),
  ticketDropped: (services, data) => pdfTicketDropped(services.pdfs, data),
  // A PDF kept is of a revision id, which the restored state may give to other pages.
  restored: (services) => services.pdfs.clear(),
  owned: [
    { collections: ['changeRequests'], owner: 'spaces', index: 'bySpace' },
    { collections: ['reviews'], owner: 'changeRequests', index: 'byChangeRequest' },
    { collections: ['requestedReviewers'], owner: 'changeRequests', index: 'byChangeRequest' },
  ],
  hooks: {
    // A space's change requests are listed under its organization, wherever it goes.
    spaceTransferred: moveSpaceChangeRequests,
    revisionAnswered: mergedFrom,
  },
})
