/** The id of a quarantine card on the Quarantine page (stable, URL-safe). */
export function quarantineAnchor(groupId: string, topic: string, partition: number): string {
  return `q-${encodeURIComponent(groupId).replace(/%/g, '_')}-${topic}-${partition}`;
}
