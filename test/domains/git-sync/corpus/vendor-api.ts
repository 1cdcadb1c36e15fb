/**
 * A company's API documentation, in the style of a Git Sync repository that a generator and many
 * hands wrote: generated-file comments before the title, `*` and `+` lists with 4-space nesting,
 * `__bold__` and `_italic_`, h4 and h5 headings, aligned tables, reference links and their
 * definitions, a mailto link, GitHub alerts, raw HTML, setext headings, indented code, `~~~`
 * fences, a SUMMARY.md with formatted labels and a `# Summary` title. Written for the tests.
 */
export const vendorApi: Record<string, string> = {
  '.gitbook.yaml': `# Managed by the docs team
root: ./

structure:
  readme: README.md
  summary: SUMMARY.md
`,
  'SUMMARY.md': `# Summary

* [Introduction](README.md)
* [Getting Started](getting-started.md)

## Reference

* [Authentication](reference/authentication.md)
* [~~Legacy~~ Endpoints](reference/endpoints/README.md)
    * [Users](reference/endpoints/users.md)
    * [__Orders__](reference/endpoints/orders.md)
* [Changelog](changelog.md)
`,
  'README.md': `---
description: >-
  The Vendor API lets you manage users
  and orders.
layout:
  title:
    visible: true
  description:
    visible: false
---

<!-- AUTOMATICALLY GENERATED, DO NOT MODIFY -->

# Vendor API

Welcome to the __Vendor API__. Write to [support](mailto:support@vendor.example) or see <https://vendor.example>.

* one
* two
    * nested _deeper_

> [!IMPORTANT]
> Keep your key secret.

#### Deep heading

| Name  |  Type   | Required |
|:------|:-------:|---------:|
| id    | string  |      yes |
| limit | integer |       no |

See the [guide][guide] for more.

[guide]: getting-started.md
`,
  'getting-started.md': `<!-- AUTOMATICALLY GENERATED, DO NOT MODIFY -->
# Getting Started

Install
-------

+ Download the CLI
+ Run it:

      vendor login

1) First step
2) Second step

~~~bash
curl https://api.vendor.example/v1/ping
~~~

<details>
<summary>Troubleshooting</summary>

Check your proxy.

</details>

Press <kbd>Ctrl</kbd> + <kbd>C</kbd> to stop.\\
A hard break above.

##### Notes

***

That's all.
`,
  'reference/authentication.md': `---
description: How to authenticate.
---

# Authentication

{% hint style="warning" %}
Tokens expire after **one hour**.
{% endhint %}

{% tabs %}
{% tab title="cURL" %}
\`\`\`bash
curl -H "Authorization: Bearer $TOKEN" https://api.vendor.example/v1/me
\`\`\`
{% endtab %}

{% tab title="Node" %}
\`\`\`js
await fetch('https://api.vendor.example/v1/me')
\`\`\`
{% endtab %}
{% endtabs %}

{% content-ref url="endpoints/" %}
[endpoints](endpoints/)
{% endcontent-ref %}

> [!NOTE]
> See also [Users](endpoints/users.md#list-users).
`,
  'reference/endpoints/README.md': `# Endpoints

All endpoints live under \`/v1\`.

* [Users](users.md)
* [Orders](orders.md)
`,
  'reference/endpoints/users.md': `# Users

## List users

\`GET /v1/users\`

| Parameter | Description |
| --- | --- |
| page | The page to read. |
| limit | At most *100*. |

## Get a user

\`GET /v1/users/{id}\`

Returns the user, or \`404\`.
`,
  'reference/endpoints/orders.md': `# Orders

## Create an order

\`POST /v1/orders\`

- __item__: the item's id
- __quantity__: how many

## Cancel an order

\`DELETE /v1/orders/{id}\`

Cancelling is final.
`,
  'changelog.md': `# Changelog

## 2.1.0

* Added \`limit\` to [Users](reference/endpoints/users.md).
* Fixed a typo.

___

## 2.0.0

* Removed the v0 endpoints.
`,
}
