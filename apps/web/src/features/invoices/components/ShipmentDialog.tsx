import { TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSaveShipment } from "../api";
import { RowDialog, type RowDialogProps } from "./RowDialog";

/** The tracking number of a marketplace order's shipment (the merchant's own carrier). */
export function ShipmentDialog({ row, onClose, onError }: RowDialogProps) {
  const { t } = useTranslation("shared");
  const save = useSaveShipment();
  const [trackingNumber, setTrackingNumber] = useState("");
  const [carrier, setCarrier] = useState("");
  return (
    <RowDialog
      row={row}
      title={`${t("einvoices.trackingNumber")}: ${row?.orderNo ?? ""}`}
      onClose={onClose}
      onError={onError}
      send={(r, callbacks) =>
        save.mutate(
          { id: r.id, trackingNumber: trackingNumber.trim(), carrier: carrier.trim() || undefined },
          callbacks,
        )
      }
      onSent={() => {
        setTrackingNumber("");
        setCarrier("");
      }}
      pending={save.isPending}
      disabled={!/^[A-Za-z0-9-]{4,40}$/.test(trackingNumber.trim())}
      confirm={{ label: t("einvoices.shipmentSave"), testId: "shipment-save" }}
    >
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
    </RowDialog>
  );
}
