import { shopSandbox } from "../testing/sandbox";
import { startAmazonEmulator } from "./emulator/server";
import { spApiModelsAvailable } from "./judge/source";

/**
 * The Amazon Türkiye channel's sandbox: a seller with the shop's catalogue listed, customers who keep
 * ordering, feeds processed in seconds. Its emulator is built from Amazon's models read in place, so it is
 * offered only where the models' snapshot is present.
 */
export const amazonSandbox = {
  ...shopSandbox(
    "amazon",
    (baseUrl, secret) => ({
      sellerId: "A2EPSANDBOX01",
      clientId: `amzn1.application-oa2-client.${secret("clientId").slice(0, 16)}`,
      clientSecret: secret("clientSecret"),
      refreshToken: `Atzr|${secret("refreshToken")}`,
      marketplaceId: "A33AVAJ2PDY3EV",
      apiUrl: baseUrl,
      tokenUrl: `${baseUrl}/auth/o2/token`,
    }),
    startAmazonEmulator,
    (c) => ({
      sellerId: c.sellerId,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      refreshToken: c.refreshToken,
      feedDelayMs: 3_000,
    }),
  ),
  available: spApiModelsAvailable,
};
