-- Issue 37, product listing: which ERP variant option feeds which of the marketplace's variant attributes
-- (Trendyol varianter/slicer), with each ERP value mapped onto the marketplace's value.
ALTER TABLE "channel_category_mappings" ADD COLUMN "variants" jsonb DEFAULT '[]'::jsonb NOT NULL;
