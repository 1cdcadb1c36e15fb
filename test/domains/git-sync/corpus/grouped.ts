/**
 * A product's docs whose `.gitbook.yaml` renames the readme and the summary (`welcome.md`,
 * `summary.md`) and whose table of contents opens with a group holding the readme, with lowercase
 * file names, `-` bullets, a hard tab and a trailing HTML comment. Written for the tests.
 */
export const grouped: Record<string, string> = {
  '.gitbook.yaml': `root: ./

structure:
  readme: welcome.md
  summary: summary.md
`,
  'summary.md': `# Table of contents

## Overview

* [Platform](welcome.md)

## Merge Queue

* [Overview](merge-queue/overview.md)
  * [Setup](merge-queue/setup.md)
* [Reference](merge-queue/reference.md)
`,
  'welcome.md': `---
description: Ship faster
---

# Platform

The platform ships your code.

<!-- end of generated section -->
`,
  'merge-queue/overview.md': `# Overview

- Queue pull requests.
- Test them together.
`,
  'merge-queue/setup.md': `# Setup

Run\tthe installer, then:

1. Connect the repository
1. Pick a branch
`,
  'merge-queue/reference.md': `# Reference

| Option | Default |
|--------|--------:|
| batch  |       4 |

Configuration lives in \`.queue.yaml\`.
`,
}
