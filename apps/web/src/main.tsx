import "./lib/zod-jitless";
import "./app/styles-sign-in";
// Inter, bundled (no font CDN): fontsource's faces, ASCII and every Turkish letter and ₺ from 22 kB of
// cuts of the same font (scripts/subset-inter.mjs); font-display: swap never blocks the first paint.
import "./app/fonts/inter.css";
import "./app/global.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { clearSession, getSession, getToken, loadSession, TOKEN_COOKIE } from "./features/auth/session-store";
import { initI18n } from "./i18n";
import { configureApiClient } from "./lib/api-client";
import { getCookie } from "./lib/cookies";

async function bootstrap() {
  // An expired token is dropped before anything renders (spec section 4).
  loadSession();
  let leaving = false;
  configureApiClient({
    getToken,
    // Any 401 on a signed-in call: clear the token and the persisted state, then reload onto
    // /auth/login, which shows the sign-in screen (spec section 8). The reload drops every cache.
    // Once: a page's calls answered 401 together would each restart (abort) the same reload.
    onUnauthorized: () => {
      if (leaving) return;
      leaving = true;
      clearSession("expired", { silent: true });
      window.location.replace("/auth/login");
    },
  });
  // Another tab signed out (cookie gone) or in: follow it when this tab comes back.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && getCookie(TOKEN_COOKIE) !== getSession().token)
      loadSession();
  });
  await initI18n();
  const root = document.getElementById("root");
  if (!root) throw new Error("#root missing");
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void bootstrap();
