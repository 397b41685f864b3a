import { Badge, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDate, formatDateTime } from "@/lib/format";
import { useSupportDeletions } from "../api";
import { SupportListPage } from "../components/SupportListPage";

/** /support/deletions — companies whose KVKK deletion request is waiting out its grace period. */
export default function SupportDeletionsPage() {
  const { t } = useTranslation();
  const deletions = useSupportDeletions();
  return (
    <SupportListPage
      section="deletions"
      query={deletions}
      table={{ highlightOnHover: true }}
      columns={[
        t("support.deletions.company"),
        t("support.deletions.requestedBy"),
        t("support.deletions.requested"),
        t("support.deletions.due"),
        t("support.deletions.daysLeft"),
      ]}
    >
      {(rows) =>
        rows.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td>
              {row.companyName}{" "}
              <Text span c="dimmed" size="xs">
                #{row.companyId}
              </Text>
            </Table.Td>
            <Table.Td>{row.requestedBy ?? "-"}</Table.Td>
            <Table.Td>{formatDateTime(row.requested_Date)}</Table.Td>
            <Table.Td>{formatDate(row.due_Date)}</Table.Td>
            <Table.Td>
              <Badge color={row.daysLeft <= 3 ? "red" : "gray"} variant="light">
                {row.daysLeft}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))
      }
    </SupportListPage>
  );
}
