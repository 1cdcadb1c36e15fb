/**
 * Documentation in a folder of a code repository (`repoProjectDirectory: docs`) whose
 * `.gitbook.yaml` names a content root, with GitBook's own syntax as GitBook writes it: figures,
 * a reusable content included by two pages, files, embeds, and code with a title. Written for the tests.
 */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

export const monorepo: Record<string, string | Uint8Array> = {
  'package.json': '{ "name": "app" }\n',
  'src/index.js': 'console.log("app")\n',
  'docs/.gitbook.yaml': 'root: ./content/\n',
  'docs/content/README.md': `---
icon: house
---

# Overview

<figure><img src=".gitbook/assets/diagram.png" alt="Architecture"><figcaption><p>The architecture</p></figcaption></figure>

{% include ".gitbook/includes/support.md" %}
`,
  'docs/content/SUMMARY.md': `# Table of contents

* [Overview](README.md)
* [Deploy](deploy.md)
`,
  'docs/content/deploy.md': `# Deploy

Deploy from the main branch only.

{% code title="deploy.sh" %}
\`\`\`sh
./deploy --prod
\`\`\`
{% endcode %}

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

{% file src=".gitbook/assets/diagram.png" %}
The diagram
{% endfile %}

{% include ".gitbook/includes/support.md" %}
`,
  'docs/content/.gitbook/includes/support.md': `---
title: Support
---

Questions? Write to <support@app.example>.
`,
  'docs/content/.gitbook/assets/diagram.png': Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)),
}
