import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { spentBy, upstream } from "@/lib/upstream/service";
import { toProductView, type ProductView } from "./product-view";
import { rememberProductImages } from "./remember-product-images";
import { rememberProductFacts } from "./remember-product-facts";

const PRODUCT_ID = /^[A-Za-z0-9._~-]{1,200}$/;

/** One product of the catalog (cached briefly); its pictures are recorded for the worker to fetch and its facts for the spend report, without waiting. */
export async function getProduct(actor: Actor, productId: string): Promise<ProductView> {
  assertCan(actor, "catalog.read");
  if (!PRODUCT_ID.test(productId)) throw new AppError("not_found", "There is no such product.");
  const product = toProductView(await upstream().getProduct(productId, { by: spentBy(actor) }));
  void rememberProductImages(product.images.map((image) => image.publicReference));
  void rememberProductFacts([product]);
  return product;
}
