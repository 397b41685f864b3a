/** IKAS emulator: the store itself — merchant, authorized app, stock locations, price lists, channels, gateways. */

import { type IkasResolverContext, matchString, type Resolvers, type StringFilter } from "./common";

export function storeResolvers(ctx: IkasResolverContext): Resolvers {
  const { state } = ctx;
  return {
    getMerchant: () => ({
      id: state.merchantId,
      storeName: state.storeName,
      email: `info@${state.storeName}.com.tr`,
      firstName: "Ayşe",
      lastName: "Yılmaz",
      merchantName: `${state.storeName} E-Ticaret A.Ş.`,
    }),

    getAuthorizedApp: () => ({
      ...state.authorizedApp,
      addedDate: 0,
      deleted: false,
      scope: "read_products,write_products,read_orders,write_orders,read_inventories,write_inventories",
    }),

    listStockLocation: (a) => {
      const args = a as { id?: StringFilter; name?: StringFilter };
      return state.stockLocations.filter((l) => matchString(l.id, args.id) && matchString(l.name, args.name));
    },
    listPriceList: (a) => state.priceLists.filter((l) => matchString(l.id, (a as { id?: StringFilter }).id)),
    listSalesChannel: (a) =>
      state.salesChannels.filter((c) => matchString(c.id, (a as { id?: StringFilter }).id)),
    listPaymentGateway: (a) =>
      state.paymentGateways.filter((g) => matchString(g.id, (a as { id?: StringFilter }).id)),
  };
}
