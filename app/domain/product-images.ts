/**
 * Product images (spec §4 "Image upload"): the path a client keeps in the
 * calculator form and a project stores is the image's address,
 * `/images/product/<owner id>/<random hex>`. The owner in the key lets the
 * image route and the save check ownership without a lookup. Browser-safe.
 */
const PRODUCT_PATH = /^\/images\/(product\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[0-9a-f]{32})$/;

/** The storage key and owner of a product image path, or null when the text is not one. */
export function parseProductImagePath(path: string | null | undefined): { key: string; ownerId: string } | null {
  const match = path ? PRODUCT_PATH.exec(path) : null;
  return match ? { key: match[1], ownerId: match[2] } : null;
}

export function productImagePathOf(key: string): string {
  return `/images/${key}`;
}

/** Where the browser loads it (served only to its owner, see models/image-access.server.ts). */
export function productImageUrl(path: string): string | null {
  return parseProductImagePath(path) ? path : null;
}

/** Whether `userId` owns the product image stored at `key` (the image route asks before serving it). */
export function ownsProductImageKey(userId: string | null | undefined, key: string): boolean {
  return Boolean(userId) && key.startsWith(`product/${userId}/`);
}
