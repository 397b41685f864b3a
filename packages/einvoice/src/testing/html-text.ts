/**
 * The text a reader sees in rendered HTML, cell by cell: styles and scripts dropped, every tag a cell
 * border, entities decoded, blanks (non-breaking ones too) collapsed, empty cells left out.
 */
export function visibleText(html: string): string[] {
  return html
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, "|")
    .replace(/&#160;|&nbsp;|\u00a0/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .split("|")
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}
