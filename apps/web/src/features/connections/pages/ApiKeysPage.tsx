import { Grid } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { QueryBoundary } from "@/components/feedback/QueryBoundary";
import { PageHeader } from "@/components/layout/PageHeader";
import { AgentsCard } from "@/features/agents/components/AgentsCard";
import { useScrollToHash } from "@/lib/scroll-to-hash";
import { useConnections } from "../api";
import { ChannelsCard } from "../components/ChannelsCard";
import { ConnectionCard } from "../components/ConnectionCard";
import { ConnectionCheckCard } from "../components/ConnectionCheckCard";
import { SandboxConnectButton } from "../components/SandboxConnect";

/**
 * /settings/api-keys — the ERP, the shop, the marketplace channels and the optional e-invoice service
 * connection, each with its test.
 */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const overview = useConnections();
  // A first step's link (`#agents`, `#sql-mapping`, `#connection-erp`) lands on that part of the page.
  useScrollToHash(overview.data !== undefined);
  return (
    <>
      <PageHeader
        title={t("connections.apiKeys.title")}
        description={t("connections.apiKeys.subtitle")}
        breadcrumbs={[{ label: t("settings.title"), to: "/settings" }]}
      />
      <QueryBoundary query={overview} minHeight={320}>
        {(data) => (
          <Grid gap="lg">
            {!(data.erp?.isEmulated && data.ecommerce?.isEmulated) && (
              <Grid.Col span={12}>
                <SandboxConnectButton />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, xl: 6 }}>
              <ConnectionCard connectionType="erp" overview={data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xl: 6 }}>
              <ConnectionCard connectionType="ecommerce" overview={data} />
            </Grid.Col>
            {/* The marketplaces sold on beside the shop (issue 37), each a channel of its own. */}
            <Grid.Col span={12}>
              <ChannelsCard />
            </Grid.Col>
            {/* Optional third connection: issues the invoices when the ERP does not. */}
            <Grid.Col span={12}>
              <ConnectionCard connectionType="einvoice" overview={data} />
            </Grid.Col>
            {(data.erp || data.ecommerce) && (
              <Grid.Col span={12}>
                <ConnectionCheckCard />
              </Grid.Col>
            )}
            <Grid.Col span={12}>
              <AgentsCard />
            </Grid.Col>
          </Grid>
        )}
      </QueryBoundary>
    </>
  );
}
