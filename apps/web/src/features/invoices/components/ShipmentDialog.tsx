import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type InvoiceRow, useSaveShipment } from "../api";

/** The tracking number of a marketplace order's shipment (the merchant's own carrier). */
export function ShipmentDialog({
  row,
  onClose,
  onError,
}: {
  row: InvoiceRow | null;
  onClose: () => void;
  onError: (e: unknown) => void;
}) {
  const { t } = useTranslation("shared");
  const save = useSaveShipment();
  const [trackingNumber, setTrackingNumber] = useState("");
  const [carrier, setCarrier] = useState("");
  return (
    <Modal
      opened={row !== null}
      onClose={onClose}
      title={`${t("einvoices.trackingNumber")}: ${row?.orderNo ?? ""}`}
    >
      <Stack>
        <TextInput
          label={t("einvoices.trackingNumber")}
          value={trackingNumber}
          onChange={(e) => setTrackingNumber(e.currentTarget.value)}
          data-testid="shipment-tracking"
        />
        <TextInput
          label={t("einvoices.carrier")}
          value={carrier}
          onChange={(e) => setCarrier(e.currentTarget.value)}
          data-testid="shipment-carrier"
        />
        <Group justify="flex-end">
          <Button
            disabled={!/^[A-Za-z0-9-]{4,40}$/.test(trackingNumber.trim())}
            loading={save.isPending}
            onClick={() =>
              row &&
              save.mutate(
                { id: row.id, trackingNumber: trackingNumber.trim(), carrier: carrier.trim() || undefined },
                {
                  onSuccess: () => {
                    setTrackingNumber("");
                    setCarrier("");
                    onClose();
                  },
                  onError,
                },
              )
            }
            data-testid="shipment-save"
          >
            {t("einvoices.shipmentSave")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
