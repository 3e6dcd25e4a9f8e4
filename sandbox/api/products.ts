import { searchProductsPage } from "../catalog-search";
import { route } from "../http/router";
import { imageReply } from "../images";
import { notFound } from "../problem";
import { productJson } from "../product-view";
import { param, type ApiEndpoint, type ApiRoute } from "./context";

export const productRoutes: ApiRoute[] = [
  route<ApiEndpoint>("GET", "/api/v1/products", {
    scope: "products.read",
    readsBody: false,
    handle: ({ sb, query }) => ({
      status: 200,
      bytes: searchProductsPage(sb, query),
      contentType: "application/json; charset=utf-8",
    }),
  }),
  route<ApiEndpoint>("GET", "/api/v1/products/:productId", {
    scope: "products.read",
    readsBody: false,
    handle: (ctx) => {
      const product = ctx.sb.catalog.byId.get(param(ctx, "productId"));
      if (!product) throw notFound(`Product ${param(ctx, "productId")} does not exist in this workspace's catalog.`);
      return { status: 200, jsonText: productJson(ctx.sb.state, ctx.sb.catalog, product) };
    },
  }),
  route<ApiEndpoint>("GET", "/api/v1/catalog-product-images/:publicReference", {
    scope: "products.read",
    readsBody: false,
    handle: (ctx) => {
      const found = ctx.sb.catalog.imagesByRef.get(param(ctx, "publicReference"));
      if (!found) throw notFound(`Image ${param(ctx, "publicReference")} does not exist.`);
      return imageReply(found.image, ctx.sb.catalog.publishedAtMs, ctx.headers);
    },
  }),
];
