import { shopSandbox } from "../testing/sandbox";
import { startJetStokPanel } from "./emulator/panel";

// The tenant's JetStok panel: the card opens it, the merchant exports its orders file and uploads it
// here, and imports the stock and price file there (no login: nothing is called with it).
export const jetstokSandbox = shopSandbox(
  "jetstok",
  (baseUrl) => ({ panelUrl: baseUrl }),
  startJetStokPanel,
  () => ({}),
);
